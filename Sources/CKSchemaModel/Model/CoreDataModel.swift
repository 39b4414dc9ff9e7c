/// A Core Data model as Xcode writes it (`App.xcdatamodel/contents`): what the mapping to
/// CloudKit and the CK6xx lint rules read. Every element keeps where it was written.
public struct CoreDataModel: Sendable, Hashable {
    /// The `contents` file it was read from.
    public var file: String
    /// The model version's name (`App 2`, the `.xcdatamodel` folder without its extension).
    public var versionName: String
    /// `usedWithCloudKit="YES"` on the model element.
    public var usedWithCloudKit: Bool
    public var entities: [Entity]
    public var configurations: [Configuration]
    public var origin: Origin
    /// Where the model was written: Xcode's model editor, or SwiftData `@Model` classes (the
    /// lint rules word their fixes for the one the developer edits).
    public var language: Language = .xcode
    /// What a reader could not resolve and said so (`CK641`, `CK643`, `CK644` for Swift
    /// sources): lint reports them at their place.
    public var notes: [Note] = []

    /// The editor of a model.
    public enum Language: Sendable, Hashable { case xcode, swiftData }

    /// A note a reader leaves on the model: its rule code, what it says and where.
    public struct Note: Sendable, Hashable {
        public var code: String
        public var message: String
        public var fix: String?
        public var origin: Origin
        public init(code: String, _ message: String, fix: String? = nil, at origin: Origin) {
            self.code = code; self.message = message; self.fix = fix; self.origin = origin
        }
    }

    public init(file: String, versionName: String, usedWithCloudKit: Bool = false, entities: [Entity] = [],
                configurations: [Configuration] = [], origin: Origin = .unknown) {
        self.file = file
        self.versionName = versionName
        self.usedWithCloudKit = usedWithCloudKit
        self.entities = entities
        self.configurations = configurations
        self.origin = origin
    }

    /// One `<entity>`.
    public struct Entity: Sendable, Hashable {
        public var name: String
        public var parent: String?
        public var isAbstract = false
        public var renamingIdentifier: String?
        public var attributes: [Attribute] = []
        public var relationships: [Relationship] = []
        /// `<uniquenessConstraint>` elements: the property names of each, and where it is.
        public var uniquenessConstraints: [(properties: [String], origin: Origin)] = []
        public var origin: Origin

        public init(name: String, origin: Origin) { self.name = name; self.origin = origin }

        public static func == (a: Entity, b: Entity) -> Bool {
            a.name == b.name && a.parent == b.parent && a.isAbstract == b.isAbstract && a.renamingIdentifier == b.renamingIdentifier
                && a.attributes == b.attributes && a.relationships == b.relationships
                && a.uniquenessConstraints.map(\.properties) == b.uniquenessConstraints.map(\.properties)
        }
        public func hash(into h: inout Hasher) { h.combine(name); h.combine(attributes); h.combine(relationships) }
    }

    /// One `<attribute>`.
    public struct Attribute: Sendable, Hashable {
        public var name: String
        /// Xcode's `attributeType` (`String`, `Integer 64`, `Transformable`, ...).
        public var type: String
        public var isOptional = false
        /// `defaultValueString` is set (or `defaultDateTimeInterval` for a date).
        public var hasDefault = false
        public var isTransient = false
        /// `allowsCloudEncryption="YES"`: stored in the record's encrypted values.
        public var allowsCloudEncryption = false
        public var renamingIdentifier: String?
        public var origin: Origin

        public init(name: String, type: String, origin: Origin) { self.name = name; self.type = type; self.origin = origin }
    }

    /// What Core Data does to the destination when the source object is deleted.
    public enum DeleteRule: String, Sendable, Hashable {
        case nullify = "Nullify", cascade = "Cascade", deny = "Deny", noAction = "No Action"
    }

    /// One `<relationship>`.
    public struct Relationship: Sendable, Hashable {
        public var name: String
        public var destination: String
        public var inverseName: String?
        public var isOptional = false
        public var isToMany = false
        public var isOrdered = false
        public var isTransient = false
        public var deleteRule: DeleteRule = .nullify
        public var renamingIdentifier: String?
        public var origin: Origin

        public init(name: String, destination: String, origin: Origin) { self.name = name; self.destination = destination; self.origin = origin }
    }

    /// One `<configuration>` and the entities it names.
    public struct Configuration: Sendable, Hashable {
        public var name: String
        public var usedWithCloudKit = false
        public var members: [String] = []
        public var origin: Origin

        public init(name: String, origin: Origin) { self.name = name; self.origin = origin }
    }

    public func entity(named name: String) -> Entity? { entities.first { $0.name == name } }
}

/// Which model version and configuration a `.xcdatamodeld` source stands for
/// (`--model-version`, `--configuration`, or `coreData:` in ckschema.yaml), and which
/// `@Model` classes SwiftData sources stand for (`swiftData.models` in ckschema.yaml).
public struct ModelSelection: Sendable, Hashable {
    /// A version's name (`App 2` or `App 2.xcdatamodel`); nil: the current version.
    public var version: String?
    /// A configuration's name; nil: the configuration marked `usedWithCloudKit`, else every entity.
    public var configuration: String?
    /// The `@Model` classes that sync, each with where ckschema.yaml names it; nil: the
    /// reader's own choice (a VersionedSchema's list, else every `@Model` class).
    public var models: [ModelName]?

    public init(version: String? = nil, configuration: String? = nil, models: [ModelName]? = nil) {
        self.version = version
        self.configuration = configuration
        self.models = models
    }

    /// `self`, with what it leaves unset taken from `fallback`.
    public func orElse(_ fallback: ModelSelection?) -> ModelSelection {
        ModelSelection(version: version ?? fallback?.version, configuration: configuration ?? fallback?.configuration,
                       models: models ?? fallback?.models)
    }
}

/// A model class named in ckschema.yaml (`Trip`, or `SchemaV2.Trip`), and where.
public struct ModelName: Sendable, Hashable {
    public var name: String
    public var location: SourceLocation

    public init(_ name: String, at location: SourceLocation) {
        self.name = name
        self.location = location
    }
}
