import Foundation

/// Writes the assets of one change block into the user's folders, all or none.
///
/// Each asset's files get one base name (the first resource's original file name, or
/// `IMG_yyyyMMdd_HHmmss`) that none of its target files has yet, with " 2", " 3", ... added
/// when needed; each file is made with O_EXCL, so nothing is ever overwritten, even by another
/// process writing at the same moment.
struct LibraryWriter {
    let folders: UserFolders

    /// A file written so far, and the file it was moved from (to put back if the change fails).
    private struct Written {
        let url: URL
        let movedFrom: URL?
    }

    func write(_ requests: [PHAssetChangeRequest]) throws {
        var written: [Written] = []
        do {
            for request in requests {
                let first = try write(request, into: &written)
                request.placeholderForCreatedAsset?.localIdentifier = first.path
            }
        } catch {
            // All or none: take back what this change wrote, and put moved files back.
            for file in written.reversed() {
                if let source = file.movedFrom, rename(file.url.path, source.path) == 0 { continue }
                unlink(file.url.path)
            }
            throw error
        }
    }

    /// Writes one asset's resources; the URL of its first file.
    private func write(_ request: PHAssetChangeRequest, into written: inout [Written]) throws -> URL {
        let resources = request.resources
        let types = resources.map { NSNumber(value: $0.type.rawValue) }
        guard !resources.isEmpty, PHAssetCreationRequest.supportsAssetResourceTypes(types) else {
            throw PHPhotosError(
                .invalidResource,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "An asset is one photo (with at most one paired video) or one video; this one has \(resources.map { "\($0.type)" })."
                ])
        }
        // Each resource's bytes are checked before anything is written.
        var plans: [(resource: PendingResource, folder: URL, fileExtension: String)] = []
        for resource in resources {
            let kind = try MediaSniffer.kind(of: resource)
            let isPhoto = resource.type == .photo
            guard isPhoto ? kind.isImage : !kind.isImage else {
                throw PHPhotosError(
                    .invalidResource,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "A \(isPhoto ? "photo" : "video") resource holds \(kind.isImage ? "an image" : "a movie") (\(kind.fileExtension))."
                    ])
            }
            let given = resource.options?.originalFilename.map { ($0 as NSString).pathExtension } ?? ""
            let folder = resource.type == .video ? folders.videos : folders.pictures
            plans.append((resource, folder, given.isEmpty ? kind.fileExtension : given))
        }
        for folder in Set(plans.map(\.folder)) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw PHPhotosError(
                    .libraryVolumeOffline, userInfo: [NSLocalizedDescriptionKey: "Cannot make the folder \(folder.path): \(error.localizedDescription)"])
            }
        }
        let base = baseName(for: resources[0], date: request.creationDate ?? Date())
        let targets = try reserve(base: base, plans: plans.map { ($0.folder, $0.fileExtension) }, into: &written)
        for (plan, target) in zip(plans, targets) {
            try fill(target, from: plan.resource, written: &written)
        }
        return targets[0]
    }

    private func baseName(for resource: PendingResource, date: Date) -> String {
        if let name = resource.options?.originalFilename, !name.isEmpty {
            let base = ((name as NSString).lastPathComponent as NSString).deletingPathExtension
            if !base.isEmpty, !base.hasPrefix(".") { return base }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd_HHmmss"
        return "IMG_\(formatter.string(from: date))"
    }

    /// Creates empty files for every target under the first free base name ("base", "base 2", ...), exclusively.
    private func reserve(base: String, plans: [(URL, String)], into written: inout [Written]) throws -> [URL] {
        for number in 1...10_000 {
            let name = number == 1 ? base : "\(base) \(number)"
            var made: [URL] = []
            var taken = false
            for (folder, fileExtension) in plans {
                let url = folder.appendingPathComponent(name).appendingPathExtension(fileExtension)
                let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                if descriptor < 0 {
                    let code = errno
                    for url in made { unlink(url.path) }
                    if code == EEXIST { taken = true; break }
                    throw Self.error(code, "Cannot create \(url.path)")
                }
                close(descriptor)
                made.append(url)
            }
            if !taken {
                written += made.map { Written(url: $0, movedFrom: nil) }
                return made
            }
        }
        throw PHPhotosError(.invalid, userInfo: [NSLocalizedDescriptionKey: "No free file name for \(base)."])
    }

    /// Puts the resource's bytes into its reserved file: written, copied, or moved there.
    private func fill(_ target: URL, from resource: PendingResource, written: inout [Written]) throws {
        switch resource.source {
        case .data(let data):
            try writeAll(data, to: target)
        case .file(let source):
            if resource.options?.shouldMoveFile == true, rename(source.path, target.path) == 0 {
                if let index = written.firstIndex(where: { $0.url == target }) { written[index] = Written(url: target, movedFrom: source) }
                return
            }
            // Copy (also when a move crosses file systems), a megabyte at a time.
            guard let input = FileHandle(forReadingAtPath: source.path) else {
                throw PHPhotosError(.missingResource, userInfo: [NSLocalizedDescriptionKey: "Cannot read \(source.path)."])
            }
            defer { try? input.close() }
            while true {
                let chunk: Data
                do { chunk = try input.read(upToCount: 1 << 20) ?? Data() } catch {
                    throw PHPhotosError(.invalidResource, userInfo: [NSLocalizedDescriptionKey: "Cannot read \(source.path): \(error.localizedDescription)"])
                }
                if chunk.isEmpty { break }
                try writeAll(chunk, to: target, appending: true)
            }
            if resource.options?.shouldMoveFile == true { unlink(source.path) }
        }
    }

    private func writeAll(_ data: Data, to url: URL, appending: Bool = false) throws {
        let descriptor = open(url.path, O_WRONLY | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC))
        guard descriptor >= 0 else { throw Self.error(errno, "Cannot open \(url.path)") }
        defer { close(descriptor) }
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Self.error(errno, "Cannot write \(url.path)")
                }
                offset += count
            }
        }
    }

    /// PhotoKit's error for a failed system call.
    static func error(_ code: Int32, _ what: String) -> PHPhotosError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT: return PHPhotosError(.notEnoughSpace, userInfo: [NSLocalizedDescriptionKey: "\(what): \(reason)"])
        case EACCES, EPERM, EROFS: return PHPhotosError(.accessRestricted, userInfo: [NSLocalizedDescriptionKey: "\(what): \(reason)"])
        default: return PHPhotosError(.invalidResource, userInfo: [NSLocalizedDescriptionKey: "\(what): \(reason)"])
        }
    }
}
