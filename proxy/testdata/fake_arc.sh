#!/bin/sh
# fake_arc.sh stands in for the arc binary in the standalone plugin's tests:
# it records its arguments in $FAKE_ARC_ARGS, prints a marker line naming its
# flags, then the program it read; a program containing ARC_BAD_INPUT fails
# the way arc does on bad input.
printf '%s\n' "$*" > "$FAKE_ARC_ARGS"
input=$(cat)
case "$input" in
*ARC_BAD_INPUT*) echo "arc: <stdin>:1:1: unexpected token" >&2; exit 1 ;;
esac
printf '// fake arc: %s\n%s\n' "$*" "$input"
