/// The lint rules' codes and what `docs/rules.md` says of each.
public enum LintRules {
    public static let all: [RuleInfo] = []
}
