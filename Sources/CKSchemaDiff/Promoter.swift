import CKSchemaLinter

/// The library entry point of `ckschema promote` and of the promote part of
/// `ckschema check`: lint the development schema, and only when it is sound, plan.
///
/// Only the `to` (development) schema is linted: the production schema is what is
/// deployed, and nothing in this repository can change it.
public enum Promoter {
    /// What a promote check found.
    public struct Result: Sendable, Hashable {
        /// Lint errors in the `to` schema. When there are any, `plan` is nil: no plan is
        /// computed from a broken model.
        public var lintErrors: [Diagnostic]
        /// The plan, when the `to` schema lints clean of errors.
        public var plan: PromotionPlan?

        /// Lint errors first, then the plan's steps at or above `minimum`.
        public func diagnostics(minimum: ChangeClass = .review) -> [Diagnostic] {
            lintErrors + (plan?.diagnostics(minimum: minimum) ?? [])
        }

        /// True when the check fails: a lint error, or a step at or above `failOn`.
        public func fails(on failOn: ChangeClass = .forbidden) -> Bool {
            !lintErrors.isEmpty || (plan?.fails(on: failOn) ?? false)
        }
    }

    /// Lints `to` with the lint rules (as `lint` configures them), then plans `from` -> `to`.
    ///
    /// - Parameter hashing: compute the schemas' hashes into the plan (to write it as a file).
    /// - Parameter promote: the repository's `promote:` settings (ckschema.yaml).
    public static func check(from: Schema, to: Schema, lint: LintConfiguration = LintConfiguration(),
                             promote: LintConfiguration = LintConfiguration(), hashing: Bool = true) -> Result {
        let linter = Linter(configuration: lint)
        return check(from: from, to: to, hashing: hashing, promote: promote, linter: linter.lint)
    }

    /// Lints `to` with `linter` (only errors stop the plan), then plans `from` -> `to`.
    public static func check(from: Schema, to: Schema, hashing: Bool = true, promote: LintConfiguration = LintConfiguration(),
                             linter: (Schema) -> [Diagnostic]) -> Result {
        let errors = linter(to).filter { $0.severity == .error }
        guard errors.isEmpty else { return Result(lintErrors: errors, plan: nil) }
        return Result(lintErrors: [], plan: PromotionPlan.compute(from: from, to: to, hashing: hashing).configured(by: promote))
    }
}
