import CKSchema

/// `--model-version` and `--configuration`: which version and configuration of a Core
/// Data model (`.xcdatamodeld`) a command reads; ckschema.yaml's `coreData:` is the default.
extension CommonOptions {
    static let modelVersion = OptionSpec(name: "model-version", short: nil, takesValue: true,
                                         help: "a Core Data model's version", valueName: "NAME", defaultValue: ".xccurrentversion's")
    static let modelConfiguration = OptionSpec(name: "configuration", short: nil, takesValue: true,
                                               help: "the model configuration mirrored to CloudKit", valueName: "NAME",
                                               defaultValue: "the one marked Used with CloudKit, else every entity")
    static let model: [OptionSpec] = [modelVersion, modelConfiguration]

    /// The flags, with what they leave unset taken from ckschema.yaml.
    static func modelSelection(_ args: ParsedArguments, config: Configuration?) -> ModelSelection {
        ModelSelection(version: args.value("model-version"), configuration: args.value("configuration")).orElse(config?.model)
    }
}
