import CKSchemaModel

/// Which rules run and how severe each is, from `ckschema.yaml`'s `lint:` section: the linter,
/// the production rules (promote, migrations, verify) and the scan all read it, so it sits
/// below them with the diagnostics it shapes.
public struct RuleSettings: Sendable, Equatable {
    public var disabled: Set<String>
    public var severities: [String: Severity]

    public init(disabled: Set<String> = [], severities: [String: Severity] = [:]) {
        self.disabled = disabled
        self.severities = severities
    }
}
