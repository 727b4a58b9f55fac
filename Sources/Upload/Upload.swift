// Upload: see README.md for this module's role.
