extension ContentKinds {
    /// Whether a paste of `category` can go to a service that takes these: text as text or a
    /// file, an image as an image or a file, other binary files only as files.
    public func takes(_ category: MediaType.Category) -> Bool {
        switch category {
        case .text: takesText
        case .image: contains(.images) || contains(.files)
        case .binary: contains(.files)
        }
    }
}
