import CKSchema

/// `[FROM] [TO]` of `diff` and `promote`: two schema sources, else the production and
/// development schemas of ckschema.yaml.
struct SchemaPairOptions: ParsableOptions {
    static let specs = ModelOptions.specs
    var from: String?
    var to: String?
    var model: ModelOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let p = arguments.positionals
        if p.count > 2 { throw UsageError("expected at most two schemas, FROM and TO; got \(p.count)") }
        from = p.first
        to = p.count > 1 ? p[1] : nil
        model = try ModelOptions(arguments)
    }

    /// Both schemas, loaded at once.
    func load(config: Configuration?) throws -> (Schema, Schema) {
        let fromPath = try SchemaArguments.production(from, config: config)
        let toPath = try SchemaArguments.development(to, config: config)
        return try SchemaSource.loadPair(from: fromPath, to: toPath, model: model.selection(config))
    }
}
