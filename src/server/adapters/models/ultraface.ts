import { nms, resizeRgb, type RgbImage } from './image';
import { openSession, ort, type SessionOptions } from './onnx';

const ULTRAFACE_FILE = 'ultraface/version-RFB-320.onnx';

const W = 320;
const H = 240;

export interface UltrafaceOptions extends SessionOptions {
  /** Face probability to count (default 0.7). */
  minScore?: number;
}

/** UltraFace RFB-320: counts faces; boxes are not kept because search only asks "people in shot". */
export class UltrafaceDetector {
  private constructor(
    private readonly session: ort.InferenceSession,
    private readonly minScore: number,
  ) {}

  /** Loads the model from `modelsDir`; throws ModelMissingError naming the file when absent. */
  static async open(modelsDir: string, opts: UltrafaceOptions = {}): Promise<UltrafaceDetector> {
    const session = await openSession(modelsDir, ULTRAFACE_FILE, 'faces (UltraFace)', opts);
    return new UltrafaceDetector(session, opts.minScore ?? 0.7);
  }

  /** Number of faces in one decoded image. */
  async count(img: RgbImage): Promise<number> {
    // Stretched, not letterboxed: the model was trained that way.
    const rgb = await resizeRgb(img, W, H);
    const plane = W * H;
    const input = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) input[c * plane + i] = (rgb[i * 3 + c] - 127) / 128;
    const out = await this.session.run({ input: new ort.Tensor('float32', input, [1, 3, H, W]) });
    const scores = out.scores.data as Float32Array;
    const boxes = out.boxes.data as Float32Array;
    const keptBoxes: number[][] = [];
    const keptScores: number[] = [];
    for (let i = 0; i < scores.length / 2; i++) {
      const s = scores[i * 2 + 1];
      if (s < this.minScore) continue;
      keptBoxes.push([boxes[i * 4], boxes[i * 4 + 1], boxes[i * 4 + 2], boxes[i * 4 + 3]]);
      keptScores.push(s);
    }
    return nms(keptBoxes, keptScores, 0.3).length;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
