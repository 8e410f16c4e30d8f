import type { CallRoute } from './call-router.js';
import type { AppError } from './errors.js';

/**
 * A router whose handlers' domain errors become HTTP answers: the domain says what went wrong,
 * `toHttp` (the route edge) picks the status and the catalogue's sentence. Errors it does not
 * know pass on unchanged to the error handler.
 */
export function mappingDomainErrors(route: CallRoute, toHttp: (error: unknown) => AppError | undefined): CallRoute {
  return (call, handler) =>
    route(call, async (context) => {
      try {
        return await handler(context);
      } catch (error) {
        throw toHttp(error) ?? error;
      }
    });
}
