import CKSchema

/// `ckschema migrate new|apply|status|hash`: versioned migrations of the local store.
enum MigrateCommand: CommandGroup {
    static let name = "migrate"
    static let summary = "Write, apply and check versioned migrations of the local store."
    static let subcommandTypes: [any Subcommand.Type] = [MigrateNew.self, MigrateApply.self, MigrateStatus.self, MigrateHash.self, MigrateBaseline.self]
    static let help = """
        Every subcommand refuses to run when Migrations/ckschema.sum does not match the files
        (status reports it). --env defaults to development for apply and status. 'new' and
        'apply --env production' refuse what 'promote' refuses, with its codes and the same
        'promote:' settings. An app already in production starts with 'baseline' (default:
        ckschema.yaml's production schema), or 'ckschema init --from-production EXPORT'.
        Migration steps: docs/migrations.md. Store tables: docs/store.md.

        examples:
          ckschema migrate new add_title
          ckschema migrate apply --env production --dry-run
          ckschema migrate status --format json
        """
}
