import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { kafkaCrc32c } from './native-crc32c';

/** kafkajs' own implementation (JavaScript, untyped), the reference. */
const kafkajsCrc32c = require('kafkajs/src/protocol/recordBatch/crc32C/index.js') as (buffer: Buffer) => number;

describe('native CRC-32C for kafkajs', () => {
  it('answers what kafkajs’ own checksum answers (the broker refuses a batch whose checksum differs)', () => {
    expect(kafkaCrc32c(Buffer.from('123456789'))).toBe(0xe3069283); // the CRC-32C check value
    for (const size of [0, 1, 7, 64, 1000, 450_000]) {
      const buffer = randomBytes(size);
      expect(kafkaCrc32c(buffer)).toBe(kafkajsCrc32c(buffer));
    }
  });

  it('is what kafkajs loads in plain Node (Jest bypasses Node’s module cache, so this runs in a child process)', () => {
    // The module compiled on the fly by TypeScript, required by a Node process without Jest.
    const script = `
      const ts = require('typescript');
      require.extensions['.ts'] = (m, file) => m._compile(ts.transpileModule(require('fs').readFileSync(file, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, esModuleInterop: true } }).outputText, file);
      const { useNativeCrc32c, kafkaCrc32c } = require(${JSON.stringify(require.resolve('./native-crc32c.ts'))});
      const installed = useNativeCrc32c();
      const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0');
      console.log(JSON.stringify({ installed, kafkajsUses: require('kafkajs/src/protocol/recordBatch/crc32C') === kafkaCrc32c, batch: typeof RecordBatch }));
    `;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: __dirname, encoding: 'utf8' }));
    expect(out).toEqual({ installed: true, kafkajsUses: true, batch: 'function' });
  });
});
