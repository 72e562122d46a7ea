#!/bin/sh
# SPDX-License-Identifier: MIT
# impulse-contact in shell pipelines whose other end misbehaves; both producers are endless, so
# the test ends only if the tool stops by itself (CTest's timeout fails it otherwise).
#   sh pipes.sh <impulse-contact> <scratch folder> <expected/ folder> closed-output
#     SIGPIPE ignored (trap '' PIPE: children inherit it), endless contacts in, and a reader
#     that takes 100 bytes and leaves: the tool must stop at its next write with exit status 2
#     and "cannot write the output: Broken pipe", whatever SIGPIPE's disposition.
#   sh pipes.sh <impulse-contact> <scratch folder> <expected/ folder> endless-line [<KiB>]
#     a header, then one line of commas that never ends, the tool's address space limited to
#     <KiB> (ulimit -v; left out under sanitizers, which reserve far more): the tool must refuse
#     the line at the line limit, exit status 2.
set -u
exe=$1 dir=$2 expected=$3 case=$4
mkdir -p "$dir"
header=vax,vay,wa,vbx,vby,wb,nx,ny
failed=0

check_file() {  # <what> <got> <expected>
    if ! cmp -s "$2" "$3"; then
        printf '%s: expected\n%s--- got\n%s---\n' "$1" "$(cat "$3")" "$(cat "$2")"
        failed=1
    fi
}

case $case in
closed-output)
    trap '' PIPE
    { echo "$header"; yes 0,0,0,0,-2,1,0,1; } 2>/dev/null |
        { "$exe"; echo $? > "$dir/status"; } 2> "$dir/err" | head -c 100 > "$dir/out"
    check_file "standard error" "$dir/err" "$expected/broken-pipe.err"
    ;;
endless-line)
    limit=${5:-}
    { echo "$header"; yes , | tr -d '\n'; } 2>/dev/null |
        (if [ -n "$limit" ]; then ulimit -v "$limit"; fi; exec "$exe") > "$dir/out" 2> "$dir/err"
    echo $? > "$dir/status"
    check_file "standard error" "$dir/err" "$expected/endless-line.err"
    check_file "standard output" "$dir/out" "$expected/header-2d.out"
    ;;
*)
    echo "pipes.sh: unknown case '$case'"
    exit 2
    ;;
esac

status=$(cat "$dir/status")
if [ "$status" != 2 ]; then
    echo "exit status: expected 2, got $status"
    failed=1
fi
exit $failed
