import type { TestService } from './build.ts'
import { contractFor, type ContractChecker } from './contract.ts'
import type { OperatorClient } from './operator.ts'

/** The operator API's own openapi.json as a checker. */
export async function operatorContract(service: TestService, prefix = 'lisbon'): Promise<ContractChecker> {
  const document = await (await fetch(`${service.origin}/admin/api/${prefix}/openapi.json`)).json() as Record<string, any>
  return contractFor(document)
}

/** Makes `client` check every answer against the operator openapi.json, as service.client() does for the guest API. */
export function checked(client: OperatorClient, contract: ContractChecker): OperatorClient {
  const send = client.request.bind(client)
  client.request = async (method, path, body, headers) => {
    const res = await send(method, path, body, headers)
    contract.check(method, path, res.status, res.headers.get('content-type'), res.body)
    return res
  }
  return client
}
