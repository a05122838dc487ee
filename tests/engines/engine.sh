#!/usr/bin/env bash
# A small Connect6 test engine speaking the referee protocol.
# usage: engine.sh MODE [AT] [NAME]
#   MODE random    legal random moves (tracks the board, never plays an occupied cell)
#        chatty    like random, but prints extra lines on stdout before every move
#        late      sleeps 1 s before its AT-th move
#        silent    never answers from its AT-th move on
#        illegal   plays an occupied cell as its AT-th move
#        offboard  plays an off-board cell (TT) as its AT-th move
#        malformed answers 'move hello!' as its AT-th move
#        longline  answers a legal move padded past the referee's 64 KiB line cap as its AT-th
#        crash     exits as its AT-th move is due
#        noname    like random, but ignores 'name?'
#   AT defaults to 2 (own moves counted from 1); NAME defaults to MODE.
mode=${1:-random}
at=${2:-2}
name=${3:-$mode}
letters=ABCDEFGHIJKLMNOPQRS
declare -A used
count=0
moves=0
last=JJ

mark() {
    local s=$1 c
    while [ -n "$s" ]; do
        c=${s:0:2}
        s=${s:2}
        if [ "$c" != "@@" ]; then
            used[$c]=1
            count=$((count + 1))
            last=$c
        fi
    done
}

# Sets $picked to a random empty cell and marks it used (no subshell: state must persist).
pick() {
    local c
    picked=
    while [ "$count" -lt 361 ]; do
        c=${letters:RANDOM%19:1}${letters:RANDOM%19:1}
        if [ -z "${used[$c]}" ]; then
            used[$c]=1
            count=$((count + 1))
            picked=$c
            return
        fi
    done
}

# Replies with a move of $1 stones, misbehaving when it is the AT-th move.
reply() {
    moves=$((moves + 1))
    if [ "$moves" -ge "$at" ]; then
        case $mode in
            silent) silent=1; return ;;
            crash) exit 3 ;;
            late) [ "$moves" -eq "$at" ] && sleep 1 ;;
            illegal) [ "$moves" -eq "$at" ] && { pick; echo "move $last$picked"; return; } ;;
            offboard) [ "$moves" -eq "$at" ] && { pick; echo "move TT$picked"; return; } ;;
            malformed) [ "$moves" -eq "$at" ] && { echo "move hello!"; return; } ;;
            longline) [ "$moves" -eq "$at" ] && [ "$1" = 2 ] && {
                pick; local a=$picked; pick; printf 'move%70000s%s\n' '' "$a$picked"; return; } ;;
        esac
    fi
    if [ "$mode" = chatty ]; then
        echo "info depth 3 score 17"
        echo "movement is not a move"
        echo "debug thinking about move $moves"
        echo ""
    fi
    if [ "$1" = 1 ]; then
        if [ -z "${used[JJ]}" ]; then
            mark JJ
            echo "move JJ@@"
        else
            pick
            echo "move $picked@@"
        fi
    else
        local a
        pick
        a=$picked
        pick
        echo "move $a$picked"
    fi
}

silent=0
while read -r cmd arg; do
    case $cmd in
        name?) [ "$mode" = noname ] || echo "name $name" ;;
        new) [ "$arg" = black ] && reply 1 ;;
        black | white) mark "$arg" ;;
        move) mark "$arg"; [ "$silent" = 1 ] || reply 2 ;;
        next) reply 2 ;;
        end) ;;
        quit) exit 0 ;;
    esac
done
