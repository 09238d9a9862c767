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

# narrate OUT.wav T1 "sentence" T2 "sentence" ...: each sentence starts at its second (as its picture
# does), silence elsewhere, padded to a minute so -shortest cuts it to the video's length. AAC at 96k:
# at 48k pocketsphinx misheard flite's voice badly.
narrate() {
  local outwav=$1; shift
  local inputs=() filters="" n=0
  while [ $# -gt 0 ]; do
    flite -voice slt -t "$2" -o "$tmp/s$n.wav"
    inputs+=(-i "$tmp/s$n.wav")
    filters+="[$n:a]adelay=$(( $1 * 1000 )):all=1[a$n];"
    n=$((n + 1)); shift 2
  done
  local mix=""; for i in $(seq 0 $((n - 1))); do mix+="[a$i]"; done
  ffmpeg -v error -y "${inputs[@]}" -filter_complex "${filters}${mix}amix=inputs=$n:normalize=0,apad=whole_dur=60" -ar 16000 -ac 1 "$outwav"
}

# 1. Animals: dog, horses, eagle, giraffe, with narration.
still "$src/dog.jpg" 4 "$tmp/a1.mp4"
still "$src/horses.jpg" 4 "$tmp/a2.mp4"
still "$src/eagle.jpg" 4 "$tmp/a3.mp4"
still "$src/giraffe.jpg" 4 "$tmp/a4.mp4"
printf "file '%s'\n" "$tmp/a1.mp4" "$tmp/a2.mp4" "$tmp/a3.mp4" "$tmp/a4.mp4" > "$tmp/a.txt"
ffmpeg -v error -y -f concat -safe 0 -i "$tmp/a.txt" -c copy "$tmp/animals.mp4"
narrate "$tmp/animals.wav" 0 "A dog sits by the bicycle." 4 "Horses run across the field." 8 "An eagle spreads its wings." 12 "A giraffe eats from the tree."
ffmpeg -v error -y -i "$tmp/animals.mp4" -i "$tmp/animals.wav" -c:v copy -c:a aac -b:a 96k -ac 1 -shortest -movflags +faststart "$out/animals.mp4"

# 2. People and kites, with a title card of on-screen text.
ffmpeg -v error -y -f lavfi -i "color=c=0x1e1b4b:s=640x360:d=3:r=25" -vf "drawtext=text='WELCOME TO CLIPSEEK':fontcolor=white:fontsize=40:x=(w-tw)/2:y=(h-th)/2,format=yuv420p" -c:v libx264 -preset veryfast -crf 30 "$tmp/b0.mp4"
still "$src/person.jpg" 4 "$tmp/b1.mp4"
still "$src/kite.jpg" 4 "$tmp/b2.mp4"
printf "file '%s'\n" "$tmp/b0.mp4" "$tmp/b1.mp4" "$tmp/b2.mp4" > "$tmp/b.txt"
ffmpeg -v error -y -f concat -safe 0 -i "$tmp/b.txt" -c copy "$tmp/people.mp4"
narrate "$tmp/people.wav" 0 "Welcome to Clipseek." 3 "A person stands with a dog and a horse." 7 "Kites fly over the beach."
ffmpeg -v error -y -i "$tmp/people.mp4" -i "$tmp/people.wav" -c:v copy -c:a aac -b:a 96k -ac 1 -shortest -movflags +faststart "$out/people-and-kites.mp4"
ls -l "$out"
