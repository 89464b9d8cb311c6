#!/bin/sh
# fake_arc.sh stands in for the arc binary in the standalone plugin's tests.
# It has no `serve` (the plugin then runs it once per compile, as an arc
# older than the worker); `compile` records its arguments in $FAKE_ARC_ARGS,
# prints a marker line naming its flags, then the program it read. A program
# containing ARC_BAD_INPUT fails the way arc does on bad input, ARC_HANG never
# finishes, ARC_KILL dies by SIGKILL, ARC_SILENT_FAIL exits 3 saying nothing.
if [ "$1" = serve ]; then
  echo 'arc: unknown command "serve"' >&2
  exit 2
fi
printf '%s\n' "$*" > "$FAKE_ARC_ARGS"
input=$(cat)
case "$input" in
*ARC_BAD_INPUT*) echo "arc: <stdin>:1:1: unexpected token" >&2; exit 1 ;;
*ARC_HANG*) exec sleep 600 ;;
*ARC_KILL*) kill -9 $$ ;;
*ARC_SILENT_FAIL*) exit 3 ;;
esac
printf '// fake arc: %s\n%s\n' "$*" "$input"
