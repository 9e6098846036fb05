import {Help} from '@oclif/core'

/**
 * oclif's help, rendering through ejs only the strings that hold a template (`<%`). oclif
 * otherwise runs every summary and description of the root help through ejs, which costs
 * more than the rest of drawing it.
 */
export default class AmctlHelp extends Help {
  constructor(...args: ConstructorParameters<typeof Help>) {
    super(...args)
    const render = this.render
    this.render = (input: string) => (input.includes('<%') ? render(input) : input)
  }
}
