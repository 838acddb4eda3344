import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Validators for responses, compiled from a served OpenAPI document itself, so a test checks the
 * behaviour against the description and not against the server's own code.
 */
export function responseValidators(document: any): (path: string, method: string, status: number) => ValidateFunction<any> {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...document, $id: 'openapi-document' });
  const cache = new Map<string, ValidateFunction<any>>();
  return (path, method, status) => {
    const key = `${method} ${path} ${status}`;
    let validate = cache.get(key);
    if (!validate) {
      const response = document.paths?.[path]?.[method]?.responses?.[String(status)];
      if (!response) throw new Error(`the document declares no ${status} response for ${method.toUpperCase()} ${path}`);
      const content = response.content?.['application/json'];
      if (!content?.schema) throw new Error(`the ${status} response of ${method.toUpperCase()} ${path} has no JSON schema`);
      const ref = content.schema.$ref as string;
      validate = ajv.compile({ $ref: `openapi-document${ref}` });
      cache.set(key, validate);
    }
    return validate;
  };
}
