// The default page's headline, as the page's own code formats it, for
// tests/readme_numbers.rs (run in Node, no browser).
//
//   node tests/readme_headline.mjs scene
//     prints the default page's scene id (DEFAULT_SCENE).
//   node tests/readme_headline.mjs headline < {"record": …, "info": …, "tolerance_deg": …}
//     prints the headline over the view for that step record (the CLI's
//     JSON of it), the scene's info ({oracle}) and the angle tolerance:
//     headlineText with the oracle name oracleTerms gives, as
//     www/wiring/readout.js calls them.
import { DEFAULT_SCENE } from '../www/state/page-state.js';
import { headlineText, oracleTerms } from '../www/ui/readout-table.js';

const mode = process.argv[2];
if (mode === 'scene') {
  console.log(DEFAULT_SCENE);
} else if (mode === 'headline') {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const { record, info, tolerance_deg: toleranceDeg } = JSON.parse(input);
  const oracleName = oracleTerms(record, info, null).name;
  console.log(headlineText(record, record.step, { toleranceDeg, oracleName }));
} else {
  console.error('usage: node tests/readme_headline.mjs scene | headline < input.json');
  process.exit(2);
}
