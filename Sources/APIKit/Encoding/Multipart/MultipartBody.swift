/// A `multipart/form-data` body ready to send: its boundary, and its bytes in order, with
/// each file on disk standing for its contents, which are read only when the body is sent.
struct MultipartBody {
    let boundary: String
    let body: RequestBody

    /// The `Content-Type` header value, which names the boundary.
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }
}
