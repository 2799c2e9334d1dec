import MachineModel

extension Extractor {
    /// Reads, parses and extracts every Swift file under `paths`.
    public static func extract(paths: [String], excluding: [String] = [], jobs: Int = 1) -> ExtractionResult {
        extract(SourceSet.load(paths: paths, excluding: excluding, jobs: jobs), jobs: jobs)
    }
}
