#!/usr/bin/env bash
# A fake engine whose second answer is a bestmove line without a move (see first_legal.sh).
exec "$(dirname "$0")/first_legal.sh" garbage 2
