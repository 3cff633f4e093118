#!/usr/bin/env bash
# A fake engine that never answers the handshake (see first_legal.sh).
exec "$(dirname "$0")/first_legal.sh" no-handshake
