import { describe, expect, it } from 'vitest';
import { isSoftwareRenderer } from './softwareGl';

describe('isSoftwareRenderer', () => {
  it('names the CPU implementations of WebGL', () => {
    for (const name of [
      'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
      'Google SwiftShader',
      'llvmpipe (LLVM 15.0.6, 256 bits)',
      'Mesa softpipe',
      'ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)',
      'Software Rasterizer',
    ])
      expect(isSoftwareRenderer(name), name).toBe(true);
  });

  it('leaves real GPUs to WebGL', () => {
    for (const name of [
      'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)',
      'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)',
      'Apple M2',
      'ANGLE (AMD, AMD Radeon RX 6800 XT (radeonsi, navi21, LLVM 15.0.7), OpenGL 4.6)',
      'Adreno (TM) 650',
      '',
    ])
      expect(isSoftwareRenderer(name), name).toBe(false);
  });
});
