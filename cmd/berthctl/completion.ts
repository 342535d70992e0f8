// `berthctl completion bash`: a bash completion script made from the command tree itself, so it
// can never offer a verb or flag berthctl does not have. Verbs (and `images` subverbs) complete at
// their position, flags of the verb being typed after it; flags taking a value skip that value.
import type { Command, Option } from 'commander';

interface Level {
  path: string;
  words: string[];
  valueFlags: string[];
}

function flagsOf(options: readonly Option[]): { words: string[]; valueFlags: string[] } {
  const words: string[] = [];
  const valueFlags: string[] = [];
  for (const o of options) {
    for (const flag of [o.long, o.short]) {
      if (!flag) continue;
      words.push(flag);
      if (o.required || o.optional) valueFlags.push(flag);
    }
  }
  return { words, valueFlags };
}

function levels(cmd: Command, path: string, out: Level[]): void {
  const subs = cmd.commands.filter((c) => c.name() !== 'help');
  const flags = flagsOf(cmd.options);
  out.push({ path, words: [...subs.flatMap((c) => [c.name(), ...c.aliases()]), ...flags.words, '--help'], valueFlags: flags.valueFlags });
  for (const sub of subs) {
    for (const name of [sub.name(), ...sub.aliases()]) levels(sub, path === '' ? name : `${path} ${name}`, out);
  }
}

const quote = (words: string[]) => words.join(' ');

export function bashCompletion(program: Command): string {
  const all: Level[] = [];
  levels(program, '', all);
  // Only flags that can come before a (sub)verb matter for finding it: berthctl's own and a group's.
  const valueFlags = [...new Set(all.filter((l) => l.path === '' || l.words.some((w) => !w.startsWith('-'))).flatMap((l) => l.valueFlags))];
  const cases = all
    .filter((l) => l.path !== '')
    .map((l) => `    "${l.path}") words="${quote(l.words)}" ;;`)
    .join('\n');
  const known = all.filter((l) => l.path !== '').map((l) => l.path);
  return `# bash completion for berthctl; load with: source <(berthctl completion bash)
_berthctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" i w skip=0
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    case " ${quote(valueFlags)} " in *" $w "*) skip=1; continue ;; esac
    [[ $w == -* ]] && continue
    case " ${known.map((k) => k.replace(/ /g, '_')).join(' ')} " in
      *" \${path:+\${path// /_}_}$w "*) path="\${path:+$path }$w" ;;
    esac
  done
  local words
  case "$path" in
    "") words="${quote(all[0]!.words)}" ;;
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _berthctl berthctl
`;
}
