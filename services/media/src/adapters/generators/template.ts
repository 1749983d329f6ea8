import { templateScript } from '../../domain/template-script.js';
import type { ScriptGenerator } from './types.js';

/** The built-in generator used when no AI provider is configured. */
export const templateGenerator: ScriptGenerator = {
  kind: 'template',
  model: null,
  async generate(input, progress) {
    await progress(50);
    return { script: templateScript(input.facts, input.type, input.prompt), model: null };
  },
};
