import CKSchemaModel

/// The diff/promote rules' codes (CK3xx) and what `docs/rules.md` says of each.
public enum PromotionRules {
    /// A plan file that is not JSON, or not a ckschema plan.
    public static let planUnreadable = RuleInfo(code: "CK390", name: "plan-unreadable", summary: "A plan file is not JSON, or not a ckschema plan.", defaultSeverity: .error, source: "the plan format, docs/output.md (not a CloudKit rule)")
    /// A plan file written by another version of the plan format.
    public static let planVersion = RuleInfo(code: "CK391", name: "plan-version", summary: "A plan file is from another version of the plan format.", defaultSeverity: .error, source: "the plan format, docs/output.md (not a CloudKit rule)")
    /// A plan computed from schemas that have changed since.
    public static let planStale = RuleInfo(code: "CK392", name: "plan-stale", summary: "A plan file was computed from schemas that have changed since (their SHA-256 differs).", defaultSeverity: .error, source: "the plan format, docs/output.md (not a CloudKit rule)")

    /// A plan file whose steps are not the steps its two schemas give.
    public static let planSteps = RuleInfo(code: "CK393", name: "plan-steps-differ", summary: "A plan file's steps or summary differ from what its two schemas give (a step edited, cut or added by hand, its text reworded, the summary changed), named by the first that differs.", defaultSeverity: .error, source: "the plan format, docs/output.md (not a CloudKit rule): a plan binds its steps (`stepsSha256`) as well as both schemas, as Atlas's `atlas.sum` binds every file")

    /// Every CK3xx rule: the production rules, sharing's requirements, then the plan-file rules.
    public static let all: [RuleInfo] = ProductionRules.all.map(\.info) + SharingRequirement.all + [planUnreadable, planVersion, planStale, planSteps]
}
