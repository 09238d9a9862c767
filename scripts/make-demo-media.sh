#!/usr/bin/env bash
# Builds the sample media of every user's demo ("Welcome") library from the photos Debian's darknet
# package ships and flite speech. Output is committed (assets/demo, a few hundred KB); rerun to rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."
src=/usr/share/darknet/data
out=assets/demo
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

still() { # photo seconds output
  ffmpeg -v error -y -loop 1 -t "$2" -i "$1" -vf "scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2,fps=25,format=yuv420p" -c:v libx264 -preset veryfast -crf 30 "$3"
}

# 1. Animals: dog, horses, eagle, giraffe, with narration.
still "$src/dog.jpg" 4 "$tmp/a1.mp4"
still "$src/horses.jpg" 4 "$tmp/a2.mp4"
still "$src/eagle.jpg" 4 "$tmp/a3.mp4"
still "$src/giraffe.jpg" 4 "$tmp/a4.mp4"
printf "file '%s'\n" "$tmp/a1.mp4" "$tmp/a2.mp4" "$tmp/a3.mp4" "$tmp/a4.mp4" > "$tmp/a.txt"
ffmpeg -v error -y -f concat -safe 0 -i "$tmp/a.txt" -c copy "$tmp/animals.mp4"
flite -voice slt -t "A dog sits by the bicycle. Horses run across the field. An eagle spreads its wings. A giraffe eats from the tree." -o "$tmp/animals.wav"
ffmpeg -v error -y -i "$tmp/animals.mp4" -i "$tmp/animals.wav" -c:v copy -af apad -c:a aac -b:a 48k -ac 1 -shortest -movflags +faststart "$out/animals.mp4"

# 2. People and kites, with a title card of on-screen text.
ffmpeg -v error -y -f lavfi -i "color=c=0x1e1b4b:s=640x360:d=3:r=25" -vf "drawtext=text='WELCOME TO CLIPSEEK':fontcolor=white:fontsize=40:x=(w-tw)/2:y=(h-th)/2,format=yuv420p" -c:v libx264 -preset veryfast -crf 30 "$tmp/b0.mp4"
still "$src/person.jpg" 4 "$tmp/b1.mp4"
still "$src/kite.jpg" 4 "$tmp/b2.mp4"
printf "file '%s'\n" "$tmp/b0.mp4" "$tmp/b1.mp4" "$tmp/b2.mp4" > "$tmp/b.txt"
ffmpeg -v error -y -f concat -safe 0 -i "$tmp/b.txt" -c copy "$tmp/people.mp4"
flite -voice slt -t "Welcome to Clipseek. A person stands with a dog and a horse. Kites fly over the beach." -o "$tmp/people.wav"
ffmpeg -v error -y -i "$tmp/people.mp4" -i "$tmp/people.wav" -c:v copy -af apad -c:a aac -b:a 48k -ac 1 -shortest -movflags +faststart "$out/people-and-kites.mp4"
ls -l "$out"
