import CKSchemaModel

/// The codes the Swift reader emits (CK640-CK645) and what `docs/rules.md` says of each.
/// The mirroring rules a SwiftData model then meets are the Core Data ones (CK610-CK617,
/// CK630-CK633): the reader gives the same `CoreDataModel` the `.xcdatamodeld` reader gives.
public enum SwiftRules {
    package static let lexical = "The Swift Programming Language, “Lexical Structure” (docs.swift.org/swift-book/documentation/the-swift-programming-language/lexicalstructure)"
    package static let swiftData = "Apple, SwiftData: Model(), Attribute(_:originalName:hashModifier:), Relationship(_:deleteRule:minimumModelCount:maximumModelCount:originalName:inverse:hashModifier:), VersionedSchema, ModelConfiguration.cloudKitDatabase (developer.apple.com/documentation/swiftdata)"
    package static let syncing = "Apple, “Syncing model data across a person's devices” (developer.apple.com/documentation/swiftdata/syncing-model-data-across-a-persons-devices): SwiftData syncs through NSPersistentCloudKitContainer"

    /// Not valid Swift as far as the lexer and bracket balance can tell: exit 2.
    public static let syntax = RuleInfo(code: "CK640", name: "swift-syntax", summary: "A Swift source is not valid Swift: an unterminated string, comment, regex or name, a stray character, or brackets that do not balance.", defaultSeverity: .error, source: lexical)
    /// A property or model the reader cannot resolve: it says so and reads the rest.
    public static let notUnderstood = RuleInfo(code: "CK641", name: "swiftdata-not-understood", summary: "A stored property whose type the Swift sources do not declare (another module's type, a macro's or property wrapper's property): assumed bytes or skipped, never guessed.", defaultSeverity: .note, source: swiftData)
    /// `--model-version` names no VersionedSchema, or the sources declare no model.
    public static let modelVersion = RuleInfo(code: "CK642", name: "swiftdata-model-version", summary: "--model-version names no VersionedSchema of the sources, or a VersionedSchema's models list names a model the sources do not declare.", defaultSeverity: .error, source: swiftData)
    /// A `ModelConfiguration(..., cloudKitDatabase: .none)` keeps its models out of CloudKit.
    public static let excluded = RuleInfo(code: "CK643", name: "swiftdata-not-synced", summary: "Models a ModelConfiguration with cloudKitDatabase: .none names: they stay in a local store and are left out of the schema.", defaultSeverity: .note, source: syncing)
    /// A stored enum: mirrored as one BYTES field (Transformable-like), from the real exports.
    public static let uncertain = RuleInfo(code: "CK644", name: "swiftdata-enum-storage", summary: "A stored enum property: Apple does not document its storage; the real exports show one BYTES field (with its _ckAsset companion), which the mapping uses.", defaultSeverity: .note, source: "the MoodMargins cktool export in ../shared/corpus/swift; Apple's SwiftData documentation is silent.")
    /// The sources hold no `@Model` class.
    public static let noModel = RuleInfo(code: "CK645", name: "swiftdata-no-model", summary: "A Swift schema source declares no @Model class (or every one is excluded from CloudKit).", defaultSeverity: .error, source: swiftData)
    /// ckschema.yaml's `swiftData.models` names a class that is not an `@Model` of the sources.
    public static let unknownModel = RuleInfo(code: "CK646", name: "swiftdata-unknown-model", summary: "ckschema.yaml's swiftData.models names a class the Swift sources do not declare as an @Model class, or one several models share.", defaultSeverity: .error, source: swiftData)

    /// The input codes (exit 2).
    public static let input: [RuleInfo] = [syntax, modelVersion, noModel, unknownModel]
    /// The notes, reported by lint at the property (CK641, CK643, CK644).
    public static let notes: [RuleInfo] = [notUnderstood, excluded, uncertain]
}
