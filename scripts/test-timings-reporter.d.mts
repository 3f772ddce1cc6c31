/** The types of scripts/test-timings-reporter.mjs (plain JavaScript: Node 20 loads reporters before tsx), for the tests that import it. */
export default function timingsReporter(source: AsyncIterable<{ type: string, data: unknown }>): AsyncGenerator<string>
