/** A setting that stops start-up; the message names the setting and what is wrong with it. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}
