/// The library entry point of `ckschema promote` and of the promote part of
/// `ckschema check`: lint both schemas, and only when they are sound, plan.
public enum Promoter {
    /// What a promote check found.
    public struct Result: Sendable, Hashable {
        /// Lint errors in either schema. When there are any, `plan` is nil: no plan is
        /// computed from a broken model.
        public var lintErrors: [Diagnostic]
        /// The plan, when both schemas lint clean of errors.
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

    /// Lints `from` and `to` with `lint` (errors only count), then plans `from` -> `to`.
    ///
    /// - Parameter lint: the linter to run on each schema (the executable passes
    ///   `Linter.lint`); it returns diagnostics of every severity, of which only errors stop the plan.
    public static func check(from: Schema, to: Schema, lint: (Schema) -> [Diagnostic]) -> Result {
        let errors = (lint(from) + lint(to)).filter { $0.severity == .error }
        guard errors.isEmpty else { return Result(lintErrors: errors, plan: nil) }
        return Result(lintErrors: [], plan: PromotionPlan.compute(from: from, to: to))
    }
}
