#!/usr/bin/env bash
# Regenerate the riichi reference corpus: every rule preset, both players.
#
#   bench/majiang/make_corpus.sh [OUTDIR] [FAST_GAMES] [AI_GAMES] [JOBS]
#
#   OUTDIR      where to write (default /tmp/majiang-corpus); keep it outside
#               the repository, the corpus is not committed
#   FAST_GAMES  games per preset with the fast player (default 300)
#   AI_GAMES    games per preset with majiang-ai      (default 2; ~15 s each)
#   JOBS        processes run at once                 (default: CPU count)
#
# Writes OUTDIR/<player>-<preset>.jsonl (one {"rule", "paifu"} line per game)
# and OUTDIR/summary.txt (one make_games.js summary line per file).  Seeds
# are fixed ("<player>-<preset>"), so a rerun with the same counts gives the
# same files byte for byte; a larger count extends the same sequence of games.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${1:-/tmp/majiang-corpus}"
FAST_GAMES="${2:-300}"
AI_GAMES="${3:-2}"
JOBS="${4:-$(nproc 2>/dev/null || echo 2)}"
PRESETS=(default no-red-east-only no-kuitan-headbump-kiriage double-wind-2fu-no-abort)

if [ ! -d "$HERE/node_modules/@kobalab/majiang-core" ]; then
    (cd "$HERE" && npm ci --no-audit --no-fund)
fi

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
TASKS="$(mktemp)"
trap 'rm -f "$TASKS" "$OUT"/.summary-*' EXIT

# majiang-ai tasks first: they are the long ones.
if [ "$AI_GAMES" -gt 0 ]; then
    for preset in "${PRESETS[@]}"; do echo "ai $preset $AI_GAMES"; done >> "$TASKS"
fi
if [ "$FAST_GAMES" -gt 0 ]; then
    for preset in "${PRESETS[@]}"; do echo "fast $preset $FAST_GAMES"; done >> "$TASKS"
fi

start=$(date +%s)
# shellcheck disable=SC2016
xargs -P "$JOBS" -L 1 sh -c '
    node "$0/make_games.js" --player "$1" --preset "$2" --games "$3" \
         --seed "$1-$2" --quiet --out "$4/$1-$2.jsonl" > "$4/.summary-$1-$2"
' "$HERE" < <(sed "s|\$| $OUT|" "$TASKS")

: > "$OUT/summary.txt"
while read -r player preset _; do
    cat "$OUT/.summary-$player-$preset" >> "$OUT/summary.txt"
done < "$TASKS"
cat "$OUT/summary.txt"
echo "corpus written to $OUT in $(( $(date +%s) - start )) s" >&2
