import CKSchemaDiagnostics
import CKSchemaModel

/// A grant must name a built-in role or one the schema creates.
///
/// Source: CloudKit Schema Language, `GRANT ... TO %role-name%` and `CREATE ROLE`;
/// CloudKit Console "Security Roles" (_world, _icloud, _creator are built in).
struct UnknownRoleRule: LintRule {
    static let info = RuleInfo(
        code: "CK121", name: "unknown-role",
        summary: "A grant names a role that is neither built in (_world, _icloud, _creator) nor declared in 'roles'.",
        defaultSeverity: .error,
        source: "CloudKit Schema Language: CREATE ROLE, GRANT (developer.apple.com/documentation/cloudkit/integrating-a-text-based-schema-into-your-workflow)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        let known = schema.knownRoles
        for t in schema.recordTypes {
            for g in t.grants where !known.contains(g.role) {
                // The grant's place is where its role is written (a YAML key, a .ckdb word);
                // the renderer offers the rename only where the file holds the name there.
                let rename = Suggest.closest(to: g.role, in: known).flatMap { s in
                    g.origin.location.map { FixIt(renaming: g.role, at: $0, to: s) }
                }
                findings.append(LintFinding("grant on '\(t.name)' names role '\(g.role)', which is not defined\(Suggest.phrase(for: g.role, in: known))",
                                            at: g.origin, fix: "add '\(g.role)' to 'roles:' or use _world, _icloud or _creator", fixIt: rename))
            }
        }
    }
}
