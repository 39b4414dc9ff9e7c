import CKSchema

/// What `push` and `verify` share: the development schema (`[SCHEMA]`), the report format,
/// ckschema.yaml, how to reach CloudKit and the Core Data model.
struct DeployOptions: ParsableOptions {
    @Positionals(.optional("SCHEMA")) var schemas: [String]
    @Opt(CommonOptions.format) var format: OutputFormat
    @Opt(CommonOptions.config) var configPath: String?
    @Group var target: PullOptions
    @Group var model: ModelOptions

    /// The one schema given; the command's `validate()` refuses more, in its own words.
    var schema: String? { schemas.first }

    /// ckschema.yaml, and the development schema: the one given, else the configured one.
    func development() throws -> (config: Configuration?, path: String) {
        let config = try CommonOptions.configuration(configPath)
        return (config, try SchemaArguments.development(schema, config: config))
    }
}
