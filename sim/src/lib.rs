//! A software navi21 behind the amdgpu kernel interface.
