/**
 * The shell side of completion: each script hands the words typed so far to the hidden
 * `uwf __complete`, which walks the command table (and reads thread ids and workflow names from the
 * store), and shows what it prints: `value<TAB>description` lines, then `:file` or `:directory` when
 * the shell should add files or directories. So the scripts never go stale as commands change.
 */
export const COMPLETION_SCRIPTS = {
  bash: `# uwf completion for bash. Load it with: source <(uwf completion bash)
# or save it as ~/.local/share/bash-completion/completions/uwf
_uwf_complete() {
  local current=\${COMP_WORDS[COMP_CWORD]} line files=
  COMPREPLY=()
  while IFS= read -r line; do
    case $line in
      :*) files=\${line#:} ;;
      ?*) COMPREPLY+=("\${line%%$'\\t'*}") ;;
    esac
  done < <(uwf __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
  if [[ -n $files ]]; then
    compopt -o filenames 2>/dev/null
    if [[ $files == directory ]]; then
      while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -d -- "$current")
    else
      while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -f -- "$current")
    fi
  fi
}
complete -F _uwf_complete uwf
`,
  zsh: `#compdef uwf
# uwf completion for zsh. Load it with: source <(uwf completion zsh)   (after compinit)
# or save it as _uwf in a folder on $fpath
_uwf() {
  local line files
  local -a candidates
  for line in "\${(@f)$(uwf __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    case $line in
      :*) files=\${line#:} ;;
      *$'\\t'*) candidates+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}") ;;
      ?*) candidates+=("\${line//:/\\\\:}") ;;
    esac
  done
  (( \${#candidates} )) && _describe -t values uwf candidates
  case $files in
    file) _files ;;
    directory) _files -/ ;;
  esac
  return 0
}
if [[ $funcstack[1] == _uwf ]]; then
  _uwf "$@"
else
  compdef _uwf uwf
fi
`,
  fish: `# uwf completion for fish. Load it with: uwf completion fish | source
# or save it as ~/.config/fish/completions/uwf.fish
function __uwf_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    set -l files
    for line in (uwf __complete -- $words[2..-1] "$current" 2>/dev/null)
        switch $line
            case ':*'
                set files (string sub -s 2 -- $line)
            case '?*'
                echo $line
        end
    end
    switch "$files"
        case file
            __fish_complete_path "$current"
        case directory
            __fish_complete_directories "$current"
    end
end
complete -c uwf -f -a '(__uwf_complete)'
`,
} as const;

export type Shell = keyof typeof COMPLETION_SCRIPTS;
