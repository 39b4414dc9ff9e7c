// The layers below this one (docs/architecture.md), re-exported so that a file of a layer
// above needs to import only the layers directly below it.
@_exported import CKSchemaConfig
