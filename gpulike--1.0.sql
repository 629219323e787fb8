/* gpulike--1.0.sql */

\echo Use "CREATE EXTENSION gpulike" to load this file. \quit
