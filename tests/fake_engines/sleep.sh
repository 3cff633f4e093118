#!/usr/bin/env bash
# A fake engine that plays first legal moves, then at its second move: sleep (see first_legal.sh).
exec "$(dirname "$0")/first_legal.sh" sleep 2
