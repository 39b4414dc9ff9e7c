#!/usr/bin/env bash
# The action's run step: ckschema with the workflow's arguments (annotations in the log),
# then the same report as Markdown into the job summary. Exits with ckschema's code, so
# the job fails on 1 (findings) and 2 (the tool could not do its job).
set -uo pipefail
bin="${CKSCHEMA_BIN:-$HOME/.ckschema/bin/ckschema}"
if [ ! -x "$bin" ]; then
  echo "::error title=ckschema::no ckschema binary at $bin (the build step did not run or failed)"
  exit 2
fi
summarize() { [ -n "${GITHUB_STEP_SUMMARY:-}" ] && cat >> "$GITHUB_STEP_SUMMARY" || cat > /dev/null; }
plan="${INPUT_PLAN:-}"

case "${INPUT_MODE:-check}" in
  check) ;;
  stage)
    # Push to development only from the default branch (what is merged is what production
    # will get); anywhere else a dry run, which still has CloudKit validate the schema.
    if [ -n "${CKSCHEMA_DEFAULT_BRANCH:-}" ] && [ "${CKSCHEMA_REF_NAME:-}" = "$CKSCHEMA_DEFAULT_BRANCH" ]; then
      push=(push --yes --format github)
    else
      push=(push --dry-run --format github)
      echo "ckschema: '${CKSCHEMA_REF_NAME:-?}' is not the default branch '${CKSCHEMA_DEFAULT_BRANCH:-?}': push --dry-run only"
    fi
    "$bin" "${push[@]}" | tee "${RUNNER_TEMP:-/tmp}/ckschema-push.txt"
    code=${PIPESTATUS[0]}
    [ -n "${GITHUB_OUTPUT:-}" ] && echo "exit-code=$code" >> "$GITHUB_OUTPUT"
    { printf '**ckschema push**: exit %s\n\n```\n' "$code"; cat "${RUNNER_TEMP:-/tmp}/ckschema-push.txt"; printf '```\n'; } | summarize
    if [ "$code" = 0 ]; then
      guide=(promote --format markdown)
      [ -n "$plan" ] && guide=(promote --plan "$plan" --format markdown)
      "$bin" "${guide[@]}" | summarize
    fi
    exit "$code"
    ;;
  verify)
    args=(verify --env production --format github)
    [ -n "$plan" ] && args+=(--plan "$plan")
    "$bin" "${args[@]}" | tee "${RUNNER_TEMP:-/tmp}/ckschema-verify.txt"
    code=${PIPESTATUS[0]}
    [ -n "${GITHUB_OUTPUT:-}" ] && echo "exit-code=$code" >> "$GITHUB_OUTPUT"
    { printf '**ckschema verify**: %s\n\n```\n' "$([ "$code" = 0 ] && echo "production has every planned change" || echo "exit $code")"
      cat "${RUNNER_TEMP:-/tmp}/ckschema-verify.txt"; printf '```\n'; } | summarize
    exit "$code"
    ;;
  *)
    echo "::error title=ckschema::mode must be check, stage or verify"
    exit 2
    ;;
esac

# Arguments are split on white space; no shell expansion happens here.
read -r -a words <<< "${INPUT_ARGS:-}"
[ ${#words[@]} -gt 0 ] || words=(check --format github)

"$bin" "${words[@]}"
code=$?
[ -n "${GITHUB_OUTPUT:-}" ] && echo "exit-code=$code" >> "$GITHUB_OUTPUT"

# The job summary: the same command with --format markdown. Options that act (deploy,
# write a plan, pull, rewrite files) are not run twice; a command that acts is not rerun.
summary=1
md=()
skip=0
for w in "${words[@]}"; do
  if [ "$skip" = 1 ]; then skip=0; continue; fi
  case "$w" in
    --format|--plan) skip=1 ;;
    --format=*|--plan=*|--pull) ;;
    --apply|--apply=*|--write|-w) summary=0 ;;
    *) md+=("$w") ;;
  esac
done
case "${words[0]}" in check|lint|promote|diff|validate) ;; *) summary=0 ;; esac
if [ "$summary" = 1 ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  "$bin" "${md[@]}" --format markdown >> "$GITHUB_STEP_SUMMARY" 2>/dev/null
  printf '\n' >> "$GITHUB_STEP_SUMMARY"
fi
exit "$code"
