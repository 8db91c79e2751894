# Bash completion for the runner (gol-runner): its subcommands, their options, the choices an
# option lists, folders and files, and the names of the bots in the --bots folder.
# The subcommands and options are read from the --help of the runner being completed (CLI11's
# layout), so they are always its own. Installed as share/bash-completion/completions/runner.

# The runner's help: of the subcommand $2, or of the runner when $2 is empty.
_runner_help() {
    "$1" ${2:+"$2"} --help 2>/dev/null
}

# The subcommands, one a line.
_runner_subcommands() {
    _runner_help "$1" | awk '/^[A-Za-z]/ { section = $0 } section == "Subcommands:" && /^  [a-z]/ { print $1 }'
}

# Each option of subcommand $2, one a line: "NAMES VALUE", NAMES as help prints them (-j,--jobs),
# VALUE what it takes (INT, TEXT:{a,b}=a) or "-" for a flag.
_runner_options() {
    _runner_help "$1" "$2" | awk '/^  -/ {
        value = "-"
        # CLI11 writes a value type in capitals (INT, TEXT, BUDGET:INT); Excludes: and Needs: end a flag.
        if (NF > 1 && $2 ~ /^[A-Z][A-Z_]*([:=].*)?$/) value = $2
        print $1, value
    }'
}

# The words before the one completed, from the one after the subcommand at $1, as
# "OPTION VALUE" lines for options of the associative array `takes` that take a value (the last
# of a repeated one wins, as in the runner) and "- WORD" lines for positional arguments.
_runner_given() {
    local i=$(($1 + 1)) word
    while ((i < COMP_CWORD)); do
        word=${COMP_WORDS[i]}
        if [[ $word == -* ]]; then
            if [[ -n ${takes[$word]} ]]; then
                ((i++))
                [[ ${COMP_WORDS[i]} == = ]] && ((i++))
                printf '%s %s\n' "$word" "${COMP_WORDS[i]}"
            fi
        else
            printf -- '- %s\n' "$word"
        fi
        ((i++))
    done
}

# The names bots in folder $1 go by (runner/bots/bot.cpp, find_bot): its folders with a bot.json,
# and its files with an extension a bot is run by, or executable, by name without the extension.
_runner_bot_names() {
    local entry name
    for entry in "$1"/*; do
        name=${entry##*/}
        if [[ -d $entry ]]; then
            [[ -f $entry/bot.json ]] && printf '%s\n' "$name"
        elif [[ $name =~ \.(py|rb|js|sh|pl|c|cpp|cc|java)$ || -x $entry ]]; then
            printf '%s\n' "${name%.*}"
        fi
    done
}

_runner() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} runner=${COMP_WORDS[0]}
    COMPREPLY=()
    # bash splits --option=value at the '=' (COMP_WORDBREAKS).
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]]; then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    fi

    local sub='' at
    for ((at = 1; at < COMP_CWORD; at++)); do
        if [[ ${COMP_WORDS[at]} != -* ]]; then
            sub=${COMP_WORDS[at]}
            break
        fi
    done
    if [[ -z $sub ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_runner_subcommands "$runner") -h --help --version" -- "$cur")
        return
    fi

    local names name value all_options=()
    local -A takes=()
    while read -r names value; do
        IFS=, read -ra names <<<"$names"
        all_options+=("${names[@]}")
        [[ $value == - ]] && continue
        for name in "${names[@]}"; do takes[$name]=$value; done
    done < <(_runner_options "$runner" "$sub")
    # The bots folder: --bots's (its default as help shows it, TEXT=bots), or league's DIR.
    local bots_dir=bots positional=()
    [[ ${takes[--bots]} == *=* ]] && bots_dir=${takes[--bots]#*=}
    while read -r name value; do
        if [[ $name == - ]]; then
            positional+=("$value")
        elif [[ $name == --bots ]]; then
            bots_dir=$value
        fi
    done < <(_runner_given "$at")
    [[ $sub == league && ${#positional[@]} -gt 0 ]] && bots_dir=${positional[0]}

    local option='' option_value=''
    [[ $prev == -* && -n ${takes[$prev]} ]] && option=$prev option_value=${takes[$prev]}

    if [[ -n $option ]]; then
        if [[ $option_value =~ \{([^}]*)\} ]]; then
            mapfile -t COMPREPLY < <(compgen -W "${BASH_REMATCH[1]//,/ }" -- "$cur")
            return
        fi
        case $option in
            --bots | --cache | --results)
                compopt -o filenames
                mapfile -t COMPREPLY < <(compgen -d -- "$cur")
                ;;
            --tournament)
                # Tournament files, and the folders on the way to them.
                compopt -o filenames
                mapfile -t COMPREPLY < <(
                    compgen -d -- "$cur"
                    compgen -f -X '!*.json' -- "$cur"
                )
                ;;
            --replay | --html | --log | --png | --from | --keys)
                compopt -o filenames
                mapfile -t COMPREPLY < <(compgen -f -- "$cur")
                ;;
            --board)
                # check's takes a board file or a replay; replay's takes a tick.
                [[ $sub == check ]] || return
                compopt -o filenames
                mapfile -t COMPREPLY < <(compgen -f -- "$cur")
                ;;
            --gauntlet | --rerun)
                mapfile -t COMPREPLY < <(compgen -W "$(_runner_bot_names "$bots_dir")" -- "$cur")
                ;;
        esac
        return
    fi

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "${all_options[*]}" -- "$cur")
        return
    fi
    # The positional arguments.
    compopt -o filenames
    case $sub in
        duel | check)
            mapfile -t COMPREPLY < <(
                compgen -W "$(_runner_bot_names "$bots_dir")" -- "$cur"
                compgen -f -- "$cur"
            )
            ;;
        league) mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
        replay) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    esac
}

complete -F _runner runner
