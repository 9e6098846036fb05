import {contractFiles} from './contract.js'

/** Every file `npm run generate` writes, by path relative to the repository, with its content. */
export async function generatedFiles(root: string): Promise<Map<string, string>> {
  return new Map([...(await contractFiles(root))])
}
