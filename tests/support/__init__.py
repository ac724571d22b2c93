"""What the tests need from outside the project, kept in the repository."""
