public import APIKit

/// `POST /v1/upload`: uploads a file from disk as `multipart/form-data`, with an optional title.
///
/// The file is streamed from disk while it is sent, never loaded whole; progress is reported as it is
/// read. Uploads get five minutes (MeteorAPI's per-request `timeoutInterval`).
public struct UploadFileRequest: MeteorRequest {
    /// What the server answers: the file parts by name (their contents) and the text fields.
    public struct Response: Decodable, Sendable, Equatable {
        /// The uploaded files' contents, by part name.
        public var files: [String: String]
        /// The text fields, by name.
        public var form: [String: String]

        /// Creates a response, for tests.
        ///
        /// - Parameters:
        ///   - files: The uploaded files' contents, by part name.
        ///   - form: The text fields, by name.
        public init(files: [String: String], form: [String: String]) {
            self.files = files
            self.form = form
        }
    }

    /// The file part.
    @FilePart("file") public var file: MultipartFile? = nil
    /// A title sent with the file; `nil` sends none.
    @Part("title") public var title: String? = nil

    /// The server; ``MeteorClient`` sets it.
    public var base = Meteor.production
    /// `v1/upload`.
    public var path: String { "v1/upload" }
    /// POST.
    public var method: HTTPMethod { .post }
    /// Five minutes: large files take time.
    public var options: RequestOptions { RequestOptions(timeout: 300) }

    /// Creates an upload of the file at `fileURL`: MeteorAPI's `.multipart([.fileURL(url:name:)])`.
    ///
    /// - Parameters:
    ///   - fileURL: A `file:` URL of a regular file; its name and extension give the part's filename and type.
    ///   - title: A title sent with the file.
    public init(file fileURL: URL, title: String? = nil) {
        self.file = .file(fileURL)
        self.title = title
    }
}
