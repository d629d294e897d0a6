/**
 * Entry for Cloudflare workerd (through miniflare, without nodejs_compat): the driver POSTs the
 * input; the worker runs the scenario on the bundled packages and answers the steps.
 */
import { runScenario, type SmokeInput } from "./scenario";

export default {
  async fetch(request: Request): Promise<Response> {
    const steps = await runScenario((await request.json()) as SmokeInput);
    return new Response(JSON.stringify(steps), { headers: { "content-type": "application/json" } });
  },
};
