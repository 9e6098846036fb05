import {requireOptimizations, requireProviderKey} from '../account.js'
import {ownedItem, requireOrg} from '../auth.js'
import type {ApiRouter, AuthedContext} from '../context.js'
import {json} from '../reply.js'
import type {Optimization, Round, Trial} from '../state.js'

/** Optimizations area: previewing the current round, proposing trials, the chat channel. */

const IDEAS = ['Tighten the system prompt', 'Add a worked example to the skill', 'Pin the MCP tool list', 'Raise samples for noisy targets']

export function registerOptimizations(router: ApiRouter): void {
  router.operation('previewOptimizationRound', (ctx) => {
    const {org, optimization} = resolve(ctx)
    requireProviderKey(org)
    const round = currentRound(optimization)
    return json({
      optimizationId: optimization.id,
      round: {number: round.number, status: round.status, trials: round.trials.length},
      suggestions: ideasFor(round, 2),
      options: ctx.body,
    })
  })

  router.operation('proposeOptimizationTrials', (ctx) => {
    const {org, optimization} = resolve(ctx)
    requireOptimizations(org)
    const round = currentRound(optimization)
    const trials = ideasFor(round, 2).map(
      (description): Trial => ({id: ctx.services.store.newId('trial'), description, status: 'proposed'}),
    )
    round.trials.push(...trials)
    return json({optimizationId: optimization.id, round: round.number, trials, options: ctx.body})
  })

  router.operation('chatOptimization', (ctx) => {
    const {optimization} = resolve(ctx)
    const {body} = ctx
    const at = new Date(ctx.services.now()).toISOString()
    const round = currentRound(optimization)
    optimization.chat.push(
      {role: 'user', content: body.message, at},
      {role: 'assistant', content: `Noted for round ${round.number}: I will weigh "${body.message}" when proposing the next trials.`, at},
    )
    return json({optimizationId: optimization.id, messages: optimization.chat})
  })
}

function resolve(ctx: AuthedContext) {
  const org = requireOrg(ctx)
  return {org, optimization: ownedItem(ctx.services.store, 'optimizations', 'optimization', ctx.params.climbId, org)}
}

function currentRound(optimization: Optimization): Round {
  let round = optimization.rounds.find((candidate) => candidate.number === optimization.currentRound)
  if (round === undefined) {
    round = {number: optimization.currentRound, status: 'open', trials: []}
    optimization.rounds.push(round)
  }
  return round
}

function ideasFor(round: Round, count: number): string[] {
  return Array.from({length: count}, (_, i) => IDEAS[(round.trials.length + i) % IDEAS.length])
}
