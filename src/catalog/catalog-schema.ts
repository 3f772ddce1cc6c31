import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { Type } from 'typebox'
import { CatalogFile, CatalogInstance, CatalogTour } from '../schemas/catalog.ts'

/**
 * The catalog's schema checks, for the file read at start (src/catalog/catalog-file.ts) and
 * for every edit (src/catalog/catalog-editor.ts), with every error at once. One Ajv, in which
 * the file's instances are the instance schema by reference: a first start validates the file
 * and then seeds each instance through the editor, which checks it again, and the two used to
 * compile the instance's schema once each, about 0.15 s of CPU apiece on the way to the first
 * answer. Each is compiled on first need.
 */
// inlineRefs off: the file's validator calls the instance's compiled function instead of
// generating the instance's code again inside its own.
const ajv = addFormats.default(new Ajv({ allErrors: true, strict: false, inlineRefs: false }))
const INSTANCE_ID = 'tourdesk:catalog-instance'
const FILE_ID = 'tourdesk:catalog-file'
const PART_ID = 'tourdesk:catalog-part'
ajv.addSchema(CatalogInstance, INSTANCE_ID)
ajv.addSchema({
  ...CatalogFile,
  properties: { instances: { ...CatalogFile.properties.instances, items: { $ref: INSTANCE_ID } } },
}, FILE_ID)
// An edit of part of an instance: its own fields with only the tours it names.
ajv.addSchema(Type.Object({ ...CatalogInstance.properties, tours: Type.Array(CatalogTour) }, { additionalProperties: false }), PART_ID)

// Ajv compiles a schema added by id on the first getSchema and keeps the function.
export const catalogFileValidator = (): ValidateFunction => ajv.getSchema(FILE_ID)!
export const catalogInstanceValidator = (): ValidateFunction => ajv.getSchema(INSTANCE_ID)!
export const catalogPartValidator = (): ValidateFunction => ajv.getSchema(PART_ID)!
