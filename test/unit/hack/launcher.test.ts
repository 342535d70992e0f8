// bin/berthd's #! line (hack/bundle/launcher.ts) with the start-up preload: first in LD_PRELOAD,
// before whatever the operator's own LD_PRELOAD holds, and left out rather than break the line.
import { berthdLauncher, SHEBANG_MAX } from '../../../hack/bundle/launcher';

const FLAGS = ['--max-semi-space-size=1'];
const firstLine = (text: string) => text.split('\n')[0]!;

describe("bin/berthd's launcher", () => {
  it("puts the preload first in Node's LD_PRELOAD, the operator's list after it", () => {
    const { text, preloaded } = berthdLauncher(FLAGS, '/opt/berth/build/Release/berth_preload.so');
    expect(preloaded).toBe(true);
    expect(firstLine(text)).toContain(` LD_PRELOAD='/opt/berth/build/Release/berth_preload.so':\${LD_PRELOAD} node --max-semi-space-size=1`);
    expect(text.split('\n')[1]).toBe('require("../dist/bundle/start.js").startBerthd();');
  });

  it('leaves out a preload whose path env -S would not take literally, or that is relative', () => {
    for (const path of ["/opt/it's/berth_preload.so", '/opt/my berth/berth_preload.so', '/opt/$HOME/berth_preload.so', 'build/Release/berth_preload.so']) {
      const { text, preloaded } = berthdLauncher(FLAGS, path);
      expect({ path, preloaded, line: firstLine(text) }).toEqual({ path, preloaded: false, line: firstLine(berthdLauncher(FLAGS).text) });
    }
  });

  it("leaves out a preload that would make the #! line longer than the kernel reads", () => {
    const fits = `/${'a'.repeat(40)}/berth_preload.so`;
    const tooLong = `/${'a'.repeat(SHEBANG_MAX)}/berth_preload.so`;
    expect(berthdLauncher(FLAGS, fits).preloaded).toBe(true);
    expect(Buffer.byteLength(firstLine(berthdLauncher(FLAGS, fits).text))).toBeLessThanOrEqual(SHEBANG_MAX);
    const { text, preloaded } = berthdLauncher(FLAGS, tooLong);
    expect(preloaded).toBe(false);
    expect(text).not.toContain('LD_PRELOAD');
  });
});
