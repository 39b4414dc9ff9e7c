import CKSchemaDiagnostics
import CKSchemaDiff
import CKSchemaLinter
import CKSchemaModel

/// The library entry point of `ckschema promote` and of the promote part of
/// `ckschema check`: lint the development schema and plan the promotion, in one run, so
/// that one verdict carries both (a lint error no longer hides a forbidden change until
/// the next round).
///
/// Only the `to` (development) schema is linted: the production schema is what is
/// deployed, and nothing in this repository can change it.
public enum Promoter {
    /// What a promote check found.
    public struct Result: Sendable, Hashable {
        /// Lint errors in the `to` schema.
        public var lintErrors: [Diagnostic]
        /// The plan, classed by the production rules with the repository's `promote:`
        /// settings (`PromotionPlan.production`). A plan file is written only when
        /// `lintErrors` is empty: a broken model is never deployed.
        public var plan: PromotionPlan
        /// What sharing needs that production lacks after the promotion (CK320, CK321), when
        /// the app shares (`SharingRequirement`): empty otherwise.
        public var sharing: [Diagnostic] = []

        /// Lint errors first, then the plan's steps at or above `minimum`, then sharing's
        /// requirements (at their own severities).
        public func diagnostics(minimum: ChangeClass = .review) -> [Diagnostic] {
            lintErrors + plan.diagnostics(minimum: minimum) + sharing.filter { ChangeClass(severity: $0.severity) >= minimum }
        }

        /// True when the check fails: a lint error, a step at or above `failOn`, or a sharing
        /// requirement at or above it.
        public func fails(on failOn: ChangeClass = .forbidden) -> Bool {
            !lintErrors.isEmpty || plan.fails(on: failOn) || sharing.contains { ChangeClass(severity: $0.severity) >= failOn }
        }
    }

    /// Lints `to` with the lint rules (as `lint` configures them), and plans `from` -> `to`.
    ///
    /// - Parameter hashing: compute the schemas' hashes into the plan (to write it as a file).
    /// - Parameter promote: the repository's `promote:` settings (ckschema.yaml).
    /// - Parameter sharing: why the app shares (its code, or ckschema.yaml's `sharing: true`),
    ///   nil when it does not: production must then hold what sharing writes (CK320, CK321).
    public static func check(from: Schema, to: Schema, lint: RuleSettings = RuleSettings(),
                             promote: RuleSettings = RuleSettings(), hashing: Bool = true, sharing: SharingRequirement.Reason? = nil) -> Result {
        let linter = Linter(configuration: lint)
        return check(from: from, to: to, hashing: hashing, promote: promote, sharing: sharing, linter: linter.lint)
    }

    /// Lints `to` with `linter` (its errors are kept), and plans `from` -> `to`.
    public static func check(from: Schema, to: Schema, hashing: Bool = true, promote: RuleSettings = RuleSettings(),
                             sharing: SharingRequirement.Reason? = nil, linter: (Schema) -> [Diagnostic]) -> Result {
        let errors = linter(to).filter { $0.severity == .error }
        var result = Result(lintErrors: errors, plan: PromotionPlan.production(from: from, to: to, settings: promote, hashing: hashing))
        if let sharing { result.sharing = SharingRequirement.check(production: from, development: to, because: sharing, settings: promote) }
        return result
    }
}
