"""The wheel of make wheel (scripts/build-wheel.sh copies this beside the staged package): the same package as
clients/python, with the release binaries in traitd/bin, tagged for this platform (py3-none-linux_ARCH), since
it carries machine code; pyproject.toml says the rest."""
from setuptools import setup
from wheel.bdist_wheel import bdist_wheel


class PlatformWheel(bdist_wheel):
    """Any Python 3, no ABI of CPython's (the binaries are programs, not extensions), this machine's platform."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(cmdclass={"bdist_wheel": PlatformWheel})
