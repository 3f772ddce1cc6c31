import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { OctoProductParams } from '../../schemas/octo.ts'
import { productOf, sellableTours, supplierOf } from '../catalog-view.ts'
import { invalidProduct } from '../errors.ts'
import { octoView } from '../octo-request.ts'

/** GET /supplier, /products, /products/{id}: the instance and the tours this key may sell. */
export const octoCatalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/supplier', async (request) => {
    const endpoint = `${request.protocol}://${request.host}/octo/${request.catalog.instance.prefix}`
    return supplierOf(request.catalog, endpoint)
  })

  app.get('/products', async (request) => {
    const view = octoView(request)
    return sellableTours(view).map((tour) => productOf(view, tour))
  })

  app.get('/products/:id', { schema: { params: OctoProductParams } }, async (request) => {
    const view = octoView(request)
    const tour = sellableTours(view).find((t) => t.id === request.params.id)
    if (!tour) throw invalidProduct(request.params.id)
    return productOf(view, tour)
  })
}
