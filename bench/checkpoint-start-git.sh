#!/bin/sh
# bench/checkpoint-start.bench.mjs: runs the real git ($CPD_REAL_GIT) and logs "<start ns> <end ns> <subcommand>".
s=$(date +%s%N)
"$CPD_REAL_GIT" "$@"
rc=$?
sub=""
for a in "$@"; do case "$a" in -c|--literal-pathspecs) ;; *=*) ;; *) sub="$a"; break;; esac; done
echo "$s $(date +%s%N) $sub" >> "${CPD_GITLOG:-/dev/null}"
exit $rc
