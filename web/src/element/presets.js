// The model presets as the element uses them (element.js imports this when it shows a
// long-context figure or is given a long-context setting): the two functions alone, so that a
// one-script build (tools/embed_views.mjs) leaves out the rest of model/long.js, whose config
// reader loads the files module.
export { fillFromPreset, presetValuesDropped } from '../model/long.js';
