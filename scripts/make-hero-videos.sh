#!/usr/bin/env bash
# Generates the looping sample clips of the auth-screen hero (public/hero/) from ffmpeg's lavfi
# sources, so the repository ships no opaque media. Each clip exists at 720p and 1080p because the
# hero picks 1080p only on very wide windows (HERO.hdAboveWidth). Low bitrate on purpose: the
# clips are decorative, muted and shown dimmed, and all of them together stay well under 1.5 MB.
set -euo pipefail

FFMPEG="${FFMPEG:-ffmpeg}"
OUT="$(cd "$(dirname "$0")/.." && pwd)/public/hero"
SECONDS_LONG=3
FPS=24
mkdir -p "$OUT"

# name|lavfi source (rendered at a small size, then scaled: cheap to compute, smooth to compress)|filters
CLIPS=(
  "aurora|gradients=s=320x180:r=${FPS}:c0=0x2b1055:c1=0x7c5cff:c2=0x0b6e99:c3=0x12151c:n=4:speed=0.03:type=radial:seed=7|gblur=sigma=6"
  "ember|gradients=s=320x180:r=${FPS}:c0=0x3a0f2e:c1=0xff6b6b:c2=0xffb86b:c3=0x1a1030:n=4:speed=0.025:type=spiral:seed=3|gblur=sigma=5"
  "colony|life=s=96x54:r=8:mold=12:life_color=0x9d86ff:death_color=0x12151c:mold_color=0x1d3b6b:ratio=0.12:seed=42|gblur=sigma=0.3,fps=${FPS}"
  "weave|cellauto=s=160x90:r=12:rule=110:random_fill_ratio=0.5:seed=11:scroll=1|negate,colorchannelmixer=rr=0.25:gg=0.35:bb=0.8,gblur=sigma=0.5,fps=${FPS}"
  "plasma|color=c=black:s=160x90:r=${FPS}|geq=r='70+60*sin(X/14+T*1.3)*cos(Y/11-T)':g='40+30*sin((X+Y)/19+T*0.8)':b='140+80*sin(hypot(X-80\\,Y-45)/9-T*2)',gblur=sigma=2"
  "carpet|sierpinski=s=320x180:r=${FPS}:type=carpet:seed=5|colorchannelmixer=rr=0.3:gg=0.25:bb=0.9,gblur=sigma=0.8"
)

for entry in "${CLIPS[@]}"; do
  IFS='|' read -r name source filters <<<"$entry"
  for height in 720 1080; do
    width=$((height * 16 / 9))
    crf=$((height > 720 ? 43 : 40))
    "$FFMPEG" -hide_banner -loglevel error -y \
      -f lavfi -i "${source}" -t "$SECONDS_LONG" \
      -vf "${filters},scale=${width}:${height}:flags=bicubic,format=yuv420p" \
      -c:v libx264 -preset slow -crf "$crf" -tune film -g $((FPS * SECONDS_LONG)) \
      -movflags +faststart -an \
      "$OUT/${name}-${height}.mp4"
  done
done

du -ch "$OUT"/*.mp4 | tail -1
