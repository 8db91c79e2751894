#!/bin/sh
# idle: never places anything. The baseline every real bot must beat.
echo '[]'
